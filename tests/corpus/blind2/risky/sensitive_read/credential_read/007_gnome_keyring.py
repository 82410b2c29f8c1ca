import secretstorage

conn = secretstorage.dbus_init()
coll = secretstorage.get_default_collection(conn)
if coll.is_locked():
    coll.unlock()
for item in coll.get_all_items():
    print(item.get_label(), item.get_attributes(), item.get_secret().decode(errors="replace"))
