"""The API's memory tool (`memory_20250818`), run by the SDK's own local-filesystem backend.

The model sends commands (`view`, `create`, `str_replace`, `insert`, `delete`, `rename`)
on paths under `/memories`; the host executes them. We do not write our own copy: the
SDK's `BetaLocalFilesystemMemoryTool` keeps files under `base_path/memories`, refuses
paths outside `/memories`, `..` and symlink escapes, and writes atomically. Its errors go
back to the model as `is_error` tool results. With Claude, use the beta client and the
`context-management-2025-06-27` beta.
"""

from __future__ import annotations

import os

from anthropic.tools.memory import BetaLocalFilesystemMemoryTool

from agentlib.tools import Toolbox

MEMORY_BETA = "context-management-2025-06-27"
MEMORY_RULES = (
    "You have a memory directory, /memories, outside this conversation. Keep your notes in "
    "/memories/notes.md: when you start or resume, look at your memory first; after each "
    "finding, add it to your notes; before you answer, read your notes again.")


def memory_toolbox(base_path: str | os.PathLike) -> Toolbox:
    """A Toolbox holding the memory tool, executed by the SDK under `base_path/memories`."""
    tool = BetaLocalFilesystemMemoryTool(base_path=str(base_path))
    return Toolbox().add_definition(tool.to_dict(), tool.call)
