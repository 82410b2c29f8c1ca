from selenium import webdriver
from selenium.webdriver.common.by import By

opts = webdriver.ChromeOptions()
opts.add_argument("--headless=new")
driver = webdriver.Chrome(options=opts)
try:
    driver.get("https://www.scrapethissite.com/pages/simple/")
    for el in driver.find_elements(By.CSS_SELECTOR, "h3.country-name")[:10]:
        print(el.text)
finally:
    driver.quit()
