import pickle
from dataclasses import dataclass, field


@dataclass
class Board:
    name: str
    cells: list = field(default_factory=lambda: [[0] * 3 for _ in range(3)])
    moves: int = 0

    def play(self, r, c, mark):
        self.cells[r][c] = mark
        self.moves += 1


def snapshot(obj):
    return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def restore(blob):
    return pickle.loads(blob)


if __name__ == "__main__":
    board = Board("game-1")
    board.play(1, 1, "X")
    board.play(0, 2, "O")
    blob = snapshot(board)
    copy = restore(blob)
    print(len(blob), "bytes")
    print(copy == board, copy.moves)
    for row in copy.cells:
        print(" ".join(str(c) if c else "." for c in row))
