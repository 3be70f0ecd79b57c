"""PyInstaller hook: hypua2jamo reads its mapping tables (*.bin) from beside its modules."""
from PyInstaller.utils.hooks import collect_data_files

datas = collect_data_files("hypua2jamo")
