"""The native half of the package (Rust, PyO3): the command line's commands in process."""

from typing import List, Optional, Tuple

def run_cli(args: List[str], stdin: Optional[str] = None) -> Tuple[int, bytes, bytes]:
    """Runs `nhlab ARGS…` with `stdin` as standard input: (status, stdout, stderr)."""

def gallery_names() -> List[str]: ...
def gallery_text(name: str) -> Optional[str]: ...
def version() -> str: ...
