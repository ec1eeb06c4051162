"""The examples in the docstrings run and print what they show."""

import doctest

import sudolab


def test_docstring_examples():
    failed, attempted = doctest.testmod(sudolab, extraglobs={"sudolab": sudolab}, report=True)
    assert attempted >= 10
    assert failed == 0
