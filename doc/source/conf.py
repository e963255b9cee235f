"""Sphinx configuration of the zaqar-delay documentation."""

extensions = [
    'sphinx.ext.autodoc',
    'oslo_config.sphinxext',
]

project = 'zaqar-delay'
copyright = 'zaqar-delay developers'
master_doc = 'index'
exclude_patterns = ['_build']
html_theme = 'alabaster'
autodoc_default_options = {'members': False}
