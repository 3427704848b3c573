"""The club's website: the pages' values (``model``), the chart's geometry (``chart``), and the
page builder (``pages``) over the Jinja2 templates in ``templates/``."""
