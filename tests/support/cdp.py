"""Driving headless Chromium over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
commands in on fd 3, replies out on fd 4, NUL-terminated JSON), with the standard library only:
open a page, press keys, evaluate script, reload, allow downloads."""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from pathlib import Path
from typing import Any

# key -> (code, Windows virtual key code) for the keys the tests press
_KEYS = {
    "ArrowLeft": ("ArrowLeft", 37),
    "ArrowUp": ("ArrowUp", 38),
    "ArrowRight": ("ArrowRight", 39),
    "ArrowDown": ("ArrowDown", 40),
} | {str(d): (f"Digit{d}", 48 + d) for d in range(10)}


class Browser:
    """One headless Chromium with one page; every call waits at most `timeout` seconds."""

    def __init__(self, binary: str, profile: Path, flags: list[str], timeout: float = 30) -> None:
        to_browser, self._commands = os.pipe()
        self._replies, from_browser = os.pipe()

        def wire() -> None:  # in the child: the pipe ends on fds 3 and 4, inheritable
            ours = os.dup(to_browser), os.dup(from_browser)
            os.dup2(ours[0], 3)
            os.dup2(ours[1], 4)

        self._process = subprocess.Popen(
            [binary, *flags, f"--user-data-dir={profile}", "--remote-debugging-pipe"],
            preexec_fn=wire,
            close_fds=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self.timeout = timeout
        self._buffer = b""
        self._id = 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]

    def call(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send one command (to the page with `session`) and return its result."""
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self._replies], [], [], left)[0]:
                    raise TimeoutError(f"no reply to {method}")
                chunk = os.read(self._replies, 1 << 16)
                if not chunk:
                    raise RuntimeError(f"Chromium exited during {method}")
                self._buffer += chunk
            raw, _, self._buffer = self._buffer.partition(b"\0")
            reply = json.loads(raw)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply["result"]
                return result

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", True, expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str) -> Any:
        """Poll until `expression` is truthy; its value."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        raise TimeoutError(f"never true: {expression}")

    def open(self, page: Path) -> None:
        """Load `page` and wait until its scripts ran (rendered_mark.js marks the body)."""
        self.call("Page.navigate", True, url=page.resolve().as_uri())
        self.wait_for("document.body && document.body.getAttribute('data-rendered')")

    def reload(self) -> None:
        self.evaluate("window.parakhBeforeReload = true")
        self.call("Page.reload", True)
        self.wait_for(
            "!window.parakhBeforeReload && document.body "
            "&& document.body.getAttribute('data-rendered')"
        )

    def press(self, key: str) -> None:
        code, virtual = _KEYS[key]
        text = {"text": key} if len(key) == 1 else {}
        for kind in ("keyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent",
                True,
                type=kind,
                key=key,
                code=code,
                windowsVirtualKeyCode=virtual,
                **(text if kind == "keyDown" else {}),
            )

    def allow_downloads(self, folder: Path) -> None:
        self.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(folder))

    def close(self) -> None:
        try:
            self.call("Browser.close")
            self._process.wait(timeout=self.timeout)
        finally:
            if self._process.poll() is None:
                self._process.kill()
                self._process.wait()
            os.close(self._commands)
            os.close(self._replies)
