class TrafficLight:
    TRANSITIONS = {"red": "green", "green": "yellow", "yellow": "red"}
    DURATIONS = {"red": 3, "green": 2, "yellow": 1}

    def __init__(self):
        self.state = "red"
        self.log = []

    def on_red(self):
        self.log.append("stop")

    def on_green(self):
        self.log.append("go")

    def on_yellow(self):
        self.log.append("slow")

    def tick(self):
        getattr(self, f"on_{self.state}")()
        self.state = self.TRANSITIONS[self.state]


if __name__ == "__main__":
    light = TrafficLight()
    timeline = []
    for _ in range(7):
        timeline.append((light.state, light.DURATIONS[light.state]))
        light.tick()
    print(timeline)
    print(light.log)
