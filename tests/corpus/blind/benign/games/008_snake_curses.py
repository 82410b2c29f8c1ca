import curses
import random

def main(win):
    curses.curs_set(0)
    win.timeout(120)
    h, w = win.getmaxyx()
    snake = [(h // 2, w // 4 + i) for i in range(3)][::-1]
    food = (h // 2, w // 2)
    direction = curses.KEY_RIGHT
    moves = {curses.KEY_UP: (-1, 0), curses.KEY_DOWN: (1, 0), curses.KEY_LEFT: (0, -1), curses.KEY_RIGHT: (0, 1)}
    while True:
        key = win.getch()
        if key in moves:
            direction = key
        dy, dx = moves[direction]
        head = (snake[0][0] + dy, snake[0][1] + dx)
        if head in snake or not (0 < head[0] < h - 1 and 0 < head[1] < w - 1):
            break
        snake.insert(0, head)
        if head == food:
            food = (random.randint(1, h - 2), random.randint(1, w - 2))
        else:
            snake.pop()
        win.erase()
        win.addch(*food, "*")
        for y, x in snake:
            win.addch(y, x, "#")

curses.wrapper(main)
