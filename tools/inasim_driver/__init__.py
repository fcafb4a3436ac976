# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The ./inasim driver: set-up, build, run, test and benchmark commands (standard library only).

One module per command (cmd_<name>.py, each with SUMMARY and main(argv)); cli.py holds the table
of commands. docs/driver.md describes the commands and how to extend them.
"""
