"""``resource.Quantity.String()`` as the API server prints quantities in its field errors.

Expected texts follow apimachinery's quantity.go (CanonicalizeBytes: the format comes from the suffix
written; decimal exponents in multiples of three; binary only for whole amounts of at least 1024).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from linter.scoring.quantitytext import quantity_text, quantity_text_like


@pytest.mark.parametrize(("written", "printed"), [
    ("2", "2"), ("2000m", "2"), ("1.5", "1500m"), ("1500m", "1500m"), (0.5, "500m"), (3, "3"),
    ("1000", "1k"),  # factors of ten move into the SI suffix
    ("1.0005", "1001m"),  # stored rounded up to milli-units
    ("0", "0"), ("0Gi", "0"), ("-1", "-1"), ("1E", "1E"), ("1k", "1k"),
    ("1Gi", "1Gi"), ("1024Mi", "1Gi"), ("1536Mi", "1536Mi"), ("0.5Gi", "512Mi"), ("-2Ki", "-2Ki"),
    ("0.5Ki", "512"), ("1023", "1023"),  # binary amounts under 1024 print as decimal SI
    ("1.1Gi", "1181116006400m"),  # not a whole number: decimal SI
    ("1e3", "1e3"), ("1.5e3", "1500"), ("12e-1", "1200e-3"), ("5E2", "500"),
])
def test_canonical_text(written: str | int | float, printed: str) -> None:
    assert quantity_text(written) == printed


@pytest.mark.parametrize(("written", "printed"), [
    ("+1", "+1"), ("01", "01"), ("1.500", "1.500"), ("+3Ki", "+3Ki"), ("01e3", "01e3"), (" +1 ", "+1"),
    ("8Ki", "8Ki"), ("0.500", "500m"), ("2.000k", "2k"), ("1.2340", "1234m"),  # not kept: canonical text
])
def test_text_parse_quantity_kept_is_printed_as_written(written: str, printed: str) -> None:
    """ParseQuantity keeps the string of a fast-path whole number that looks canonical (q.s) and String()
    returns it; a multiple of 8 Ki, a leading 0 digit or a finer than milli scale is recomputed."""
    assert quantity_text(written) == printed


def test_a_sum_keeps_the_format_it_started_from() -> None:
    assert quantity_text_like(Fraction(6 * 2**30), "3Gi") == "6Gi"
    assert quantity_text_like(Fraction(6 * 2**30), "3221225472") == "6442450944"
    assert quantity_text_like(Fraction(3, 2), "1") == "1500m"
