"""Open files a tournament is written to (docs/api/files.md), pure: no Django, no database.

* ``schema``: the results file's JSON Schema and XSD (``push-results-1.schema.json``,
  ``push-results-1.xsd``, shipped beside this module), and the check of a file against
  them, each problem with where it is (a JSON pointer, an XML path).
* ``xml_form``: the results file in XML, the same content as its JSON, both ways.
* ``deal_file``: a duplicate round's boards as plain text (``push-deals/1``).
* ``trf``: a Swiss tournament's fixed-width report of every team's results per round.

The selectors gather what goes in; these only write and read the files.
"""
