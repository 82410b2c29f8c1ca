import curses
import random

def main(scr):
    curses.curs_set(0)
    scr.timeout(120)
    h, w = scr.getmaxyx()
    snake = [(h // 2, w // 4 + i) for i in range(3)][::-1]
    food = (h // 2, w // 2)
    d = (0, 1)
    keys = {curses.KEY_UP: (-1, 0), curses.KEY_DOWN: (1, 0), curses.KEY_LEFT: (0, -1), curses.KEY_RIGHT: (0, 1)}
    while True:
        k = scr.getch()
        d = keys.get(k, d)
        head = (snake[0][0] + d[0], snake[0][1] + d[1])
        if head in snake or not (0 < head[0] < h - 1 and 0 < head[1] < w - 1):
            return len(snake)
        snake.insert(0, head)
        if head == food:
            food = (random.randint(1, h - 2), random.randint(1, w - 2))
        else:
            scr.addch(*snake.pop(), " ")
        scr.addch(*food, "*")
        scr.addch(*head, "#")

print("score:", curses.wrapper(main))
