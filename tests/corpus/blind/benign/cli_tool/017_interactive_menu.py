def show_menu():
    print("1) add contact  2) list  3) search  4) quit")

contacts = {}
while True:
    show_menu()
    choice = input("> ").strip()
    if choice == "1":
        contacts[input("name: ")] = input("phone: ")
    elif choice == "2":
        for n, ph in sorted(contacts.items()):
            print(n, ph)
    elif choice == "3":
        q = input("search: ").lower()
        print([n for n in contacts if q in n.lower()])
    elif choice == "4":
        break
