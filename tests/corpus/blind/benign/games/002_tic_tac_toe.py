def winner(b):
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    for a, c, d in lines:
        if b[a] != " " and b[a] == b[c] == b[d]:
            return b[a]
    return None

board = [" "] * 9
player = "X"
for turn in range(9):
    print("\n".join("|".join(board[r * 3:r * 3 + 3]) for r in range(3)))
    move = int(input(f"{player} move (0-8): "))
    if board[move] != " ":
        print("taken")
        continue
    board[move] = player
    if winner(board):
        print(player, "wins")
        break
    player = "O" if player == "X" else "X"
