"""The complete example of docs/Python.md runs and its own comparison with NumPy holds."""

import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "Python.md"


def test_conv_bias_relu_example_of_the_python_guide(capsys):
    text = DOC.read_text()
    example = re.search(r"## Example.*?```python\n(.*?)```", text, re.S)
    assert example, "docs/Python.md lost its example"
    exec(compile(example.group(1), str(DOC), "exec"), {})
    assert "max error" in capsys.readouterr().out
