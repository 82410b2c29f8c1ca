import subprocess
import sys

SCRIPT = "import sys; print(sum(1 for _ in open(sys.argv[1])))"


def test_counts_lines(tmp_path):
    f = tmp_path / "data.txt"
    f.write_text("a\nb\nc\n")
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(f)], capture_output=True, text=True)
    assert out.stdout.strip() == "3"
