"""The door's rule on a declared encoding (PEP 263): refused when Python would read other text
than the UTF-8 that is assessed, kept when it reads the same."""

from __future__ import annotations

import pytest

from mai_safety.domain.assessment import check_submission_bytes
from mai_safety.domain.errors import InvalidSubmission


def _refusal(raw: bytes) -> str:
    with pytest.raises(InvalidSubmission) as refused:
        check_submission_bytes(raw, 10_000, "FILE")
    return str(refused.value)


def test_a_utf7_declaration_that_turns_a_comment_into_code_is_refused_naming_the_line() -> None:
    message = _refusal(b'# coding: utf-7\nprint(1)\n# +AAo-import os\n')
    assert "'utf-7'" in message and "line 3" in message and "coding line" in message


def test_a_latin1_declaration_on_utf8_text_beyond_ascii_is_refused() -> None:
    assert "'iso-8859-1'" in _refusal("# -*- coding: latin-1 -*-\nprint('café')\n".encode())


def test_an_unknown_codec_and_a_bom_beside_another_declaration_are_refused() -> None:
    assert "unknown encoding" in _refusal(b"# coding: no-such-codec\nx = 1\n")
    assert "byte-order mark" in _refusal(b"\xef\xbb\xbf# coding: latin-1\nx = 1\n")


@pytest.mark.parametrize(
    "raw",
    [b"# -*- coding: latin-1 -*-\nprint('ascii')\n", b"# coding: utf8\nx = 1\n", b"\xef\xbb\xbfx = 1\n", b"# coding: utf-7\nx = 1\n"],
)
def test_a_declaration_under_which_python_reads_the_same_text_is_kept(raw: bytes) -> None:
    check_submission_bytes(raw, 10_000, "FILE")
