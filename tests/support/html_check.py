#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""html_check.py FILE: the HTML problems a validator would name, one a line;
exit 1 when there are any.  Checks what report.html promises: a doctype,
<html lang>, one <title>, unique ids, end tags that match, no script."""
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Check(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.stack, self.errors = {}, [], []
        self.titles = self.doctype = 0
        self.lang = None

    def handle_decl(self, decl):
        self.doctype |= decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        line = self.getpos()[0]
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "title" and (not self.stack or self.stack[-1] == "head"):
            self.titles += 1
        if tag == "script":
            self.errors.append(f"line {line}: <script> (the report must read without JavaScript)")
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append(f"line {line}: duplicate id '{a['id']}' (first on line {self.ids[a['id']]})")
            self.ids.setdefault(a["id"], line)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"line {self.getpos()[0]}: </{tag}> does not close <{self.stack[-1] if self.stack else ''}>")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()


c = Check()
c.feed(open(sys.argv[1], encoding="utf-8").read())
c.close()
if not c.doctype:
    c.errors.append("no <!DOCTYPE html>")
if not c.lang:
    c.errors.append("<html> has no lang")
if c.titles != 1:
    c.errors.append(f"{c.titles} <title> elements in <head>, expected 1")
if c.stack:
    c.errors.append("unclosed: " + " ".join(c.stack))
for e in c.errors:
    print(e)
sys.exit(1 if c.errors else 0)
