"""PyInstaller hook: Kiwi loads its model package from C code, which the import scan cannot see."""
from PyInstaller.utils.hooks import collect_data_files

hiddenimports = ["kiwipiepy_model"]
datas = collect_data_files("kiwipiepy") + collect_data_files("kiwipiepy_model")
