"""Start a server as a child process on a free loopback port, wait until it answers, stop it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """A server child process; `url` is its root (`http://127.0.0.1:<port>`)."""

    def __init__(
        self,
        args: Sequence[str],
        port: int,
        log_path: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = log_path
        self._log = open(log_path, "wb") if log_path else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            list(args), stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True, env=env
        )

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (`.../v1`)."""
        return f"{self.url}/v1"

    def wait_ready(self, path: str = "/v1/models", timeout_s: float = 60.0) -> ServerProcess:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}: {self.tail()}")
            try:
                with urllib.request.urlopen(self.url + path, timeout=2) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        self.close()
        raise TimeoutError(f"server on port {self.port} not ready in {timeout_s}s: {self.tail()}")

    def tail(self, chars: int = 2000) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        if not isinstance(self._log, int):
            self._log.close()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_python_server(
    module_args: Sequence[str],
    *,
    ready_path: str = "/v1/models",
    timeout_s: float = 60.0,
    log_path: Path | None = None,
) -> ServerProcess:
    """`python -m <module_args> --port <free>` on loopback, returned once it answers. The
    repository root is on the child's path, so `tests.support.fault_server` runs from any folder."""
    port = free_port()
    args = [sys.executable, "-m", *module_args, "--host", "127.0.0.1", "--port", str(port)]
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    return ServerProcess(args, port, log_path, env).wait_ready(ready_path, timeout_s)


def start_mlflow_server(root: Path, *, workers: int = 1, timeout_s: float = 120.0) -> ServerProcess:
    """`mlflow server` on loopback with a SQLite backend store and proxied artifacts, all under
    `root`; returned once /health answers."""
    root.mkdir(parents=True, exist_ok=True)
    port = free_port()
    mlflow = Path(sys.executable).parent / "mlflow"
    args = [
        *([str(mlflow)] if mlflow.exists() else [sys.executable, "-m", "mlflow"]),
        "server",
        "--backend-store-uri",
        f"sqlite:///{root / 'mlflow.db'}",
        "--artifacts-destination",
        str(root / "artifacts"),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    return ServerProcess(args, port, log_path=root / "server.log").wait_ready("/health", timeout_s)
