import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("NODA_KEYRING", "off")   # tests never touch the developer's real keyring
