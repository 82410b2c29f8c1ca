board = [" "] * 9
lines = [(0,1,2),(3,4,5),(6,7,8),(0,3,6),(1,4,7),(2,5,8),(0,4,8),(2,4,6)]

def show():
    for r in range(3):
        print("|".join(board[r*3:r*3+3]))

def winner():
    for a, b, c in lines:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return board[a]
    return None

player = "X"
for turn in range(9):
    show()
    pos = int(input(f"{player} move (0-8): "))
    if board[pos] != " ":
        print("taken"); continue
    board[pos] = player
    if w := winner():
        show(); print(w, "wins"); break
    player = "O" if player == "X" else "X"
