"""The offline course model: a deterministic Messages API stand-in behind the real SDK."""

from .server import CourseModel
from .transport import OfflineTransport

__all__ = ["CourseModel", "OfflineTransport"]
