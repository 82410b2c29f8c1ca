import random

def deck():
    d = [v for v in list(range(2, 11)) + [10, 10, 10, 11] for _ in range(4)]
    random.shuffle(d)
    return d

def total(hand):
    t = sum(hand)
    aces = hand.count(11)
    while t > 21 and aces:
        t -= 10
        aces -= 1
    return t

cards = deck()
hand = [cards.pop(), cards.pop()]
while total(hand) < 17:
    hand.append(cards.pop())
print("dealer:", hand, "=", total(hand), "(bust)" if total(hand) > 21 else "")
