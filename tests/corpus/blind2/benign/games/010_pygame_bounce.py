import pygame

pygame.init()
screen = pygame.display.set_mode((400, 300))
clock = pygame.time.Clock()
x, y, vx, vy = 50, 50, 3, 2
running = True
while running:
    for e in pygame.event.get():
        if e.type == pygame.QUIT:
            running = False
    x += vx; y += vy
    if not 10 < x < 390: vx = -vx
    if not 10 < y < 290: vy = -vy
    screen.fill((0, 0, 0))
    pygame.draw.circle(screen, (255, 200, 0), (x, y), 10)
    pygame.display.flip()
    clock.tick(60)
pygame.quit()
