"""Binding a tablet to a table: the supervisor's pages, and the cookie the tablet keeps."""
