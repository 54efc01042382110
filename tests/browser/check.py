"""Opens dupcost's HTML reports in headless Chromium and says what a reader would meet.

Usage: check.py SHOTS_DIR PAGE.html...

For each page, on stdout, one JSON object a line:
  page             the file opened
  requests         every URL the page asked for besides itself (each one refused)
  console_errors   console messages of type error, and uncaught page errors
  verdict          the verdict's text, whether it is visible, whether it lies wholly
                   within the first screen (1280x800, and 390x844 for a phone), and
                   whether each flag in it (`.flag`) lies on one line
  cards            the text of each headline card (its figure, range and label)
  print_pages      pages of the A4 PDF that printing makes
  dark_background  the page's background colour with prefers-color-scheme: dark
Screenshots (light, dark, phone, print) and the PDF go to SHOTS_DIR, named after the page.

The browser is Debian's chromium at /usr/bin/chromium (CHROMIUM overrides), run as the CI
runs it: headless, as root without a sandbox, with a new empty profile and no background
traffic. Playwright is only the driver: it never downloads a browser.
"""

import json
import os
import pathlib
import sys
import tempfile

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENS = {"desktop": (1280, 800), "phone": (390, 844)}


def check(context, path, shots):
    url = path.resolve().as_uri()
    page = context.new_page()
    requests, errors = [], []
    page.on("request", lambda r: r.url != url and r.url not in requests and requests.append(r.url))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    # Nothing but the page itself is let through: a request elsewhere is recorded above and
    # refused here, so the test never depends on a network.
    page.route("**/*", lambda route: route.continue_() if route.request.url == url else route.abort())
    name = path.stem
    verdict = {}
    for screen, (width, height) in SCREENS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(media="screen", color_scheme="light")
        page.goto(url, wait_until="load")
        found = page.locator("#verdict")
        box = found.bounding_box() if found.count() == 1 else None
        verdict[screen] = {
            "text": found.inner_text() if found.count() == 1 else None,
            "visible": found.count() == 1 and found.is_visible(),
            "in_first_screen": box is not None
            and box["y"] >= 0
            and box["y"] + box["height"] <= height
            and box["x"] >= 0
            and box["x"] + box["width"] <= width,
            "flags_whole": page.evaluate(
                "Array.from(document.querySelectorAll('#verdict .flag'))"
                ".every(e => e.getClientRects().length === 1)"
            ),
        }
        page.screenshot(path=str(shots / f"{name}-{screen}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    cards = page.locator(".figures li").all_inner_texts()
    page.screenshot(path=str(shots / f"{name}-full.png"), full_page=True)
    page.emulate_media(media="screen", color_scheme="dark")
    dark_background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.screenshot(path=str(shots / f"{name}-dark.png"), full_page=True)
    page.emulate_media(media="print", color_scheme="light")
    page.screenshot(path=str(shots / f"{name}-print.png"), full_page=True)
    pdf = shots / f"{name}.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    print_pages = pdf.read_bytes().count(b"/Type /Page") - pdf.read_bytes().count(b"/Type /Pages")
    page.close()
    return {
        "page": str(path),
        "requests": requests,
        "console_errors": errors,
        "verdict": verdict,
        "cards": cards,
        "print_pages": print_pages,
        "dark_background": dark_background,
    }


def main():
    shots = pathlib.Path(sys.argv[1])
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            chromium_sandbox=False,
            offline=True,
        )
        try:
            for page in sys.argv[2:]:
                print(json.dumps(check(context, pathlib.Path(page), shots)), flush=True)
        finally:
            context.close()


if __name__ == "__main__":
    main()
