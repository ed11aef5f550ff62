"""The audit log's hash chain: each row's hash covers the previous row's hash and its own
content, so an edited, deleted, reordered or replaced row breaks the chain from there on.

* **The table's identity.**  A table made by this version has a random identity (its
  header's ``uid``), and its first row chains to a hash of it (:func:`genesis`), not to
  zeros: another table's chain copied in its place does not verify.
* **The key.**  SHA-256 by default; with a key in ``$CALLBETS_AUDIT_KEY`` when the table
  is opened, the hash is an HMAC, which nobody without the key can recompute after an
  edit, and the table keeps a check of the key (:func:`key_check`, which does not reveal
  it): it is then never written, nor verified, without that key.
* **The head.**  A chain cannot notice its own end being cut, nor, without a key, being
  recomputed whole.  Its head (row count and last hash, :class:`Head`) kept outside the
  table (printed on each spin, kept in an anchor file) can: :func:`check_head`.

Pure functions: the table writes the hashes, ``callbets table verify`` checks them.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import AuditKeyError
from ..messages import Said, said

GENESIS = "0" * 64
"""The "previous hash" of the first row."""
KEY_VARIABLE = "CALLBETS_AUDIT_KEY"


def audit_key() -> bytes | None:
    """The HMAC key from the environment, if one is set."""
    key = os.environ.get(KEY_VARIABLE)
    return key.encode("utf-8") if key else None


def genesis(uid: str | None) -> str:
    """The "previous hash" of a table's first row: a hash of its identity (zeros for a
    table made before tables had one)."""
    if not uid:
        return GENESIS
    return hashlib.sha256(f"callbets-audit\x1f{uid}".encode()).hexdigest()


def key_check(key: bytes, uid: str) -> str:
    """What a keyed table keeps to recognise its key (an HMAC of its identity: it does
    not reveal the key)."""
    return hmac.new(key, f"callbets-key-check\x1f{uid}".encode(), hashlib.sha256).hexdigest()


def table_key(uid: str | None, kept_check: str | None, writing: bool = True) -> bytes | None:
    """The key a table's chain is written and verified with: the key in the environment
    for a table opened with one (checked against what it kept), none for the others.

    :raises AuditKeyError: a keyed table and no key, or another key; to write
        (``writing``), a key set for a table opened without one (its rows would verify
        neither with the key nor without; its chain is read without it).
    """
    key = audit_key()
    if kept_check is None:
        if key is not None and uid and not writing:
            return None
        if key is not None and uid:
            raise AuditKeyError(said("audit_key_not_keyed", variable=KEY_VARIABLE))
        return None if uid else key  # tables made before keys were kept: as they were
    if key is None:
        raise AuditKeyError(said("audit_key_needed", variable=KEY_VARIABLE))
    if not hmac.compare_digest(key_check(key, uid or ""), kept_check):
        raise AuditKeyError(said("audit_key_wrong", variable=KEY_VARIABLE))
    return key


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
    reason: Said | str
    """Why that row is bad (empty when all verify)."""
    head: str
    """The hash of the last good row."""

    @property
    def ok(self) -> bool:
        """True when every row verifies."""
        return self.first_bad is None


def check_chain(
    rows: Iterable[tuple[int, str, str, str, str | None]],
    key: bytes | None,
    first: str = GENESIS,
    start: int = 1,
) -> ChainCheck:
    """Recompute the chain over ``(seq, ts, kind, payload, hash)`` rows in their order,
    the first (numbered ``start``) chained to ``first`` (:func:`genesis`, or the hash of
    the row before)."""
    previous, expected_seq, count = first, start, 0
    for seq, ts, kind, payload, stored in rows:
        count += 1
        if seq != expected_seq:
            reason = said("chain_gap", seq=seq, previous=expected_seq - 1)
            return ChainCheck(count, seq, reason, previous)
        if stored is None or not hmac.compare_digest(
            stored, row_hash(previous, seq, ts, kind, payload, key)
        ):
            reason = said("chain_changed", seq=seq, kind=kind)
            return ChainCheck(count, seq, reason, previous)
        previous, expected_seq = stored, seq + 1
    return ChainCheck(count, None, "", previous)


@dataclass(frozen=True)
class Head:
    """Where a chain stood: its row count and the hash of its last row, written
    ``ROWS:HASH`` (the hash may be shortened to its first 16 characters)."""

    rows: int
    hash: str

    SHORT = 16
    """Characters of the hash printed (64 bits: no edit can be made to match them)."""

    def __str__(self) -> str:
        return f"{self.rows}:{self.hash[: self.SHORT]}"

    @classmethod
    def parse(cls, text: str) -> Head:
        """A head as printed (``57:3fa2c1d0e9b8a7f6``).

        :raises ValueError: not ``ROWS:HASH`` with at least 16 hexadecimal characters.
        """
        rows, sep, digest = text.strip().partition(":")
        digest = digest.lower()
        hexadecimal = all(c in "0123456789abcdef" for c in digest)
        if not (sep and rows.isdigit() and len(rows) < 19 and hexadecimal
                and cls.SHORT <= len(digest) <= 64):  # fmt: skip
            raise ValueError(text)
        return cls(int(rows), digest)


def head_of(rows: Iterable[tuple[int, str, str, str, str | None]]) -> Head:
    """The head of a chain as stored (its last row), checked or not."""
    last: tuple[int, str | None] = (0, GENESIS)
    for seq, _ts, _kind, _payload, stored in rows:
        last = (seq, stored)
    return Head(last[0], last[1] or "")


def check_head(rows: Iterable[tuple[int, str, str, str, str | None]], kept: Head) -> str:
    """Whether a chain still holds a head kept earlier: "" when it does, else
    ``"cut"`` (fewer rows now) or ``"rewritten"`` (that row's hash changed)."""
    if kept.rows == 0:
        return ""
    for seq, _ts, _kind, _payload, stored in rows:
        if seq == kept.rows:
            return "" if (stored or "").startswith(kept.hash) else "rewritten"
    return "cut"
