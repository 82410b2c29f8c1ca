import arcade

class Game(arcade.Window):
    def __init__(self):
        super().__init__(800, 600, "Platformer")
        self.player = arcade.SpriteSolidColor(30, 50, arcade.color.BLUE)
        self.player.center_x, self.player.center_y = 100, 100

    def on_draw(self):
        self.clear()
        self.player.draw()

    def on_key_press(self, key, modifiers):
        if key == arcade.key.RIGHT:
            self.player.change_x = 5
        elif key == arcade.key.LEFT:
            self.player.change_x = -5

    def on_update(self, dt):
        self.player.update()

Game()
arcade.run()
