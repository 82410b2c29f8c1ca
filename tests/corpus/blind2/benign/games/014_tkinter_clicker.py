import tkinter as tk

root = tk.Tk()
root.title("Clicker")
count = tk.IntVar(value=0)
tk.Label(root, textvariable=count, font=("Arial", 32)).pack(padx=40, pady=10)
tk.Button(root, text="Click!", command=lambda: count.set(count.get() + 1)).pack(pady=10)
root.mainloop()
