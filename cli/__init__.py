"""The `fupan` command line (cli/main.py), above the web app it serves (web/) and the services it calls."""
