import random

deck = [v for v in list(range(2, 11)) + [10, 10, 10, 11] for _ in range(4)]
random.shuffle(deck)

def total(hand):
    t, aces = sum(hand), hand.count(11)
    while t > 21 and aces:
        t -= 10
        aces -= 1
    return t

player, dealer = [deck.pop(), deck.pop()], [deck.pop(), deck.pop()]
while total(player) < 21 and input(f"{player} ({total(player)}) hit? [y/n] ") == "y":
    player.append(deck.pop())
while total(dealer) < 17:
    dealer.append(deck.pop())
p, d = total(player), total(dealer)
print("player", p, "dealer", d, "->", "win" if p <= 21 and (d > 21 or p > d) else "lose")
