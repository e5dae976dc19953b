"""The Volcano wing: volcano-scheduler.conf (bare or in its ConfigMap), modelled on Volcano's loader.

``decode`` reads the file the way Volcano's yaml.v2 unmarshalling does (``fields``: the keys its
conf types know; ``scalars``: a scalar node's text and tag; ``govalue``: Go's ``%v``), ``handler``
detects the format and builds the context the rules read, ``binpack`` says which binpack arguments Volcano
takes and how, ``codes`` holds the wing's rule codes.
"""
