"""The table page: Flask app factory, blueprints, templates, static assets and the SQLite store.

Kept free of imports here so that ``shakecity score`` does not pay for Flask.
"""
