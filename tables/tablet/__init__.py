"""The dealer tablet: the page a dealer runs a whole round on, by touch (issue 8). It talks
to the round API and the table's live channel only; this package renders the page."""
