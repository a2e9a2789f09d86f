"""Spread requests over replicas of one served model, and route around one that stops answering.

Each server has its own limit on requests in flight. A request goes to the server with the most
free room (in flight / limit lowest; the first listed wins ties). A server whose connection is
refused or dropped is taken out at once; one that times out `TIMEOUTS_TO_DOWN` times in a row is
too. A server taken out gets no requests for its cooldown, then a single probe: a success puts
it back, a failure doubles the cooldown (up to a cap). While every server is out (a single
server that stopped, say), requests still go to them and fail fast into their own retry
budget: a dead endpoint ends as error rows, never as a stalled run.

Everything here runs on one asyncio event loop, so nothing needs a lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from enum import Enum

TIMEOUTS_TO_DOWN = 3


class Outcome(Enum):
    """How a call to a server ended, as far as the server's health goes."""

    ANSWERED = "answered"  # any HTTP answer, error statuses included: the server is there
    TIMED_OUT = "timed_out"
    UNREACHABLE = "unreachable"  # refused, reset or dropped connection


@dataclass
class ServerState:
    url: str
    limit: int
    in_flight: int = 0
    down_until: float = 0.0  # monotonic; 0: up
    cooldown_s: float = 0.0
    timeouts_in_a_row: int = 0
    probing: bool = False
    requests: int = 0
    failures: int = 0

    @property
    def down(self) -> bool:
        return self.down_until > 0.0

    def room(self, now: float) -> int:
        """Requests this server may take now: none while out, one probe once its cooldown ends."""
        if self.down:
            return 0 if now < self.down_until or self.probing else 1
        return self.limit - self.in_flight


class ServerPool:
    def __init__(
        self, servers: list[tuple[str, int]], cooldown_s: float, max_cooldown_s: float
    ) -> None:
        if not servers:
            raise ValueError("a server pool needs at least one server")
        self.servers = [ServerState(url, limit) for url, limit in servers]
        self.cooldown_s = cooldown_s
        self.max_cooldown_s = max(cooldown_s, max_cooldown_s)
        self._changed = asyncio.Event()  # set at each release

    @property
    def capacity(self) -> int:
        return sum(s.limit for s in self.servers)

    def _pick(self, now: float, avoid: ServerState | None) -> ServerState | None:
        candidates = [s for s in self.servers if s.room(now) > 0]
        if not candidates and all(s.down for s in self.servers):
            # Nothing answers: waiting out cooldowns would stall the run, so requests go on
            # as they would to a single server, failing fast into their own retry budget.
            candidates = [s for s in self.servers if s.in_flight < s.limit]
            candidates = sorted(candidates, key=lambda s: s.down_until)[:1]
        if avoid is not None and len(candidates) > 1:
            candidates = [s for s in candidates if s is not avoid] or candidates
        return min(candidates, key=lambda s: s.in_flight / s.limit, default=None)

    async def acquire(self, avoid: ServerState | None = None) -> ServerState:
        """A server with room for one more request (preferring another than `avoid`)."""
        while True:
            now = time.monotonic()
            server = self._pick(now, avoid)
            if server is not None:
                if server.down:
                    server.probing = True
                server.in_flight += 1
                server.requests += 1
                return server
            ends = [s.down_until for s in self.servers if s.down and not s.probing]
            wait = max(0.0, min(ends) - now) if ends else None
            self._changed.clear()
            # a cooldown ended: look again (asyncio's own TimeoutError, a class apart on 3.10)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), wait)

    async def release(self, server: ServerState, outcome: Outcome) -> None:
        """A request back from `server`: its outcome marks the server up, or takes it out."""
        server.in_flight -= 1
        self._changed.set()  # waiters look again
        if outcome is Outcome.ANSWERED:
            server.down_until = 0.0
            server.cooldown_s = 0.0
            server.timeouts_in_a_row = 0
            server.probing = False
            return
        server.failures += 1
        if server.down and not server.probing:
            return  # already out: a request sent before it went down
        if outcome is Outcome.TIMED_OUT and not server.probing:
            server.timeouts_in_a_row += 1
            if server.timeouts_in_a_row < TIMEOUTS_TO_DOWN:
                return
        server.cooldown_s = (  # a failed probe doubles it
            min(server.cooldown_s * 2, self.max_cooldown_s) if server.probing else self.cooldown_s
        )
        server.down_until = time.monotonic() + server.cooldown_s
        server.probing = False

    def others_up(self, server: ServerState) -> bool:
        """Whether another server could take a request now or soon (not taken out)."""
        return any(s is not server and not s.down for s in self.servers)
