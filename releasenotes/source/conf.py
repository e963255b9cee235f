"""Sphinx configuration of the zaqar-delay release notes."""

extensions = ['reno.sphinxext']
project = 'zaqar-delay Release Notes'
copyright = 'zaqar-delay developers'
master_doc = 'index'
html_theme = 'alabaster'
