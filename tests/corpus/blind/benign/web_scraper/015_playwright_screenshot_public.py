from playwright.sync_api import sync_playwright

with sync_playwright() as p:
    browser = p.chromium.launch()
    page = browser.new_page()
    page.goto("https://playwright.dev/python/")
    page.screenshot(path="playwright-docs.png", full_page=True)
    print(page.title())
    browser.close()
