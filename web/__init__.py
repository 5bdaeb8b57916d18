"""The wiring root: the Flask app (web/app.py) that mounts the JSON API (api/) and the pages (replay_ui/), two
siblings that never import each other, with the request middleware around them — the unit of work
(web/units.py), security headers and CORS."""
