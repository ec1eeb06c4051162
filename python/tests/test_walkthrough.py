"""docs/python.md executes: its ```python blocks run in order, in one namespace, from the
repository's root."""

import os
import re


def test_the_walkthrough_runs(root, capsys):
    text = (root / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 7
    namespace: dict = {}
    here = os.getcwd()
    os.chdir(root)
    try:
        for number, block in enumerate(blocks, start=1):
            exec(compile(block, f"docs/python.md block {number}", "exec"), namespace)
    finally:
        os.chdir(here)
    printed = capsys.readouterr().out
    assert "unique" in printed
