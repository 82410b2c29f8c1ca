class Node:
    def __init__(self, val, nxt=None):
        self.val, self.next = val, nxt

def build(values):
    head = None
    for v in reversed(values):
        head = Node(v, head)
    return head

def reverse(head):
    prev = None
    while head:
        head.next, prev, head = prev, head, head.next
    return prev

def to_list(head):
    out = []
    while head:
        out.append(head.val)
        head = head.next
    return out

print(to_list(reverse(build([1, 2, 3, 4, 5]))))
