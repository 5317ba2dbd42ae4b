"""agentlib: the small library the course builds, one idea per module."""

from .client import connect

__all__ = ["connect"]
