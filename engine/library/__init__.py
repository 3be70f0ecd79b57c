"""The library: folders of documents kept read and searchable (one ``Tenant`` per folder).

``tenant`` is the face (refresh, documents, search, one document, its original); behind it ``refresh``
runs a refresh, ``workers`` reads files in worker processes, ``cache`` keeps what was read, ``state``
remembers each file, ``indexes`` keeps one search index per permission group of ``acl``, ``listing``
shapes the folder's listing and ``unpack`` copies ZIP members out for the viewer.
"""
