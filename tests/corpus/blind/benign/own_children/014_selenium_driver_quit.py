from selenium import webdriver

driver = webdriver.Firefox()
try:
    driver.get("https://example.org")
    print(driver.title)
finally:
    driver.quit()
print("browser closed")
