"""The audit log's hash chain: each row's hash covers the previous row's hash and its own
content, so an edited, deleted, reordered or replaced row breaks the chain from there on.

SHA-256 by default; with a key in ``$CALLBETS_AUDIT_KEY`` the hash is an HMAC, which
nobody without the key can recompute after an edit.  Pure functions: the table writes the
hashes, ``callbets table verify`` checks them.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterable
from dataclasses import dataclass

GENESIS = "0" * 64
"""The "previous hash" of the first row."""
KEY_VARIABLE = "CALLBETS_AUDIT_KEY"


def audit_key() -> bytes | None:
    """The HMAC key from the environment, if one is set."""
    key = os.environ.get(KEY_VARIABLE)
    return key.encode("utf-8") if key else None


def row_hash(previous: str, seq: int, ts: str, kind: str, payload: str, key: bytes | None) -> str:
    """The hash of one audit row, chained to the previous row's hash."""
    content = "\x1f".join((previous, str(seq), ts, kind, payload)).encode("utf-8")
    if key is not None:
        return hmac.new(key, content, hashlib.sha256).hexdigest()
    return hashlib.sha256(content).hexdigest()


@dataclass(frozen=True)
class ChainCheck:
    """The result of checking the chain."""

    rows: int
    """Rows checked."""
    first_bad: int | None
    """The sequence number of the first row that does not verify, or None."""
    reason: str
    """Why that row is bad (empty when all verify)."""
    head: str
    """The hash of the last good row."""

    @property
    def ok(self) -> bool:
        """True when every row verifies."""
        return self.first_bad is None


def check_chain(
    rows: Iterable[tuple[int, str, str, str, str | None]], key: bytes | None
) -> ChainCheck:
    """Recompute the chain over ``(seq, ts, kind, payload, hash)`` rows in their order."""
    previous, expected_seq, count = GENESIS, 1, 0
    for seq, ts, kind, payload, stored in rows:
        count += 1
        if seq != expected_seq:
            reason = f"row {seq} follows row {expected_seq - 1}: rows are missing or moved"
            return ChainCheck(count, seq, reason, previous)
        if stored is None or not hmac.compare_digest(
            stored, row_hash(previous, seq, ts, kind, payload, key)
        ):
            reason = f"row {seq} ({kind}) does not match its hash: it was changed or replaced"
            return ChainCheck(count, seq, reason, previous)
        previous, expected_seq = stored, seq + 1
    return ChainCheck(count, None, "", previous)
