# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# (command line, run condition, valgrind condition)
cpp_examples = [
    ("inasim-config defaults", "True", "False"),
]

python_examples = []
