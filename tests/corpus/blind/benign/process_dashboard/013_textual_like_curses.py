import curses
import time
import psutil

def main(stdscr):
    curses.curs_set(0)
    stdscr.nodelay(True)
    while stdscr.getch() != ord("q"):
        stdscr.erase()
        stdscr.addstr(0, 0, f"CPU {psutil.cpu_percent():5.1f}%  MEM {psutil.virtual_memory().percent:5.1f}%  (q quits)")
        procs = sorted(psutil.process_iter(["pid", "name", "cpu_percent"]), key=lambda p: -(p.info["cpu_percent"] or 0))
        for row, p in enumerate(procs[: curses.LINES - 2], start=2):
            stdscr.addstr(row, 0, f"{p.info['pid']:>7} {p.info['cpu_percent'] or 0:5.1f} {p.info['name']}"[: curses.COLS - 1])
        stdscr.refresh()
        time.sleep(1)

curses.wrapper(main)
