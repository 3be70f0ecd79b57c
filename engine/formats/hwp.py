"""HWP 5.0 reader — placeholder until the HWP reader lands (issue 3)."""
from engine.formats.base import ReadFailure


def read(data: bytes, doc) -> None:
    raise ReadFailure("HWP_NOT_YET")
