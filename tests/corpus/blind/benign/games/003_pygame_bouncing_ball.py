import pygame

pygame.init()
screen = pygame.display.set_mode((640, 480))
clock = pygame.time.Clock()
x, y, vx, vy = 320, 240, 4, 3
running = True
while running:
    for event in pygame.event.get():
        if event.type == pygame.QUIT:
            running = False
    x, y = x + vx, y + vy
    if not 10 < x < 630:
        vx = -vx
    if not 10 < y < 470:
        vy = -vy
    screen.fill((20, 20, 30))
    pygame.draw.circle(screen, (240, 180, 60), (x, y), 10)
    pygame.display.flip()
    clock.tick(60)
pygame.quit()
