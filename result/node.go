package result

import (
	"rfhandoff/ident"
	"rfhandoff/node"
	"rfhandoff/strictjson"
)

// NodeFields are the keys a node result (schema_version 2, PROTOCOL#several-nodes)
// has after rf_tx, in this order; a single-node result has neither.
type NodeFields struct {
	Node string `json:"node"` // one of the task's RX_NODES
	// SigMFMetaSHA512 is the SHA-512 of the node's .sigmf-meta: null in
	// READY, and in a COMPLETE with no metadata (a recovered capture).
	SigMFMetaSHA512 *string `json:"sigmf_meta_sha512"`
}

var nodeFields = []strictjson.Field[NodeFields]{
	{Key: "node", Check: func(n *NodeFields, v value) string {
		s, why := strictjson.Str(v, "a node name matching "+node.Pattern())
		if why != "" {
			return why
		}
		if node.Check(s) != "" {
			return "must be a node name matching " + node.Pattern() + ", got " + v.Describe()
		}
		n.Node = s
		return ""
	}},
	{Key: "sigmf_meta_sha512", Check: func(n *NodeFields, v value) string {
		return nullable(v, &n.SigMFMetaSHA512, func(v value, dst *string) string {
			return strictjson.Match(v, ident.SHA512, "128 lowercase hex digits (a SHA-512)", dst)
		})
	}},
}

// checkNode applies the version rules of PROTOCOL#several-nodes. A
// scheduled result is a node result when want names a node, and with
// AnyNode when it has a node key.
func checkNode(m members, r *Result, good map[string]bool, want string, nf *NodeFields, p *problems) {
	if !good["schema_version"] {
		return
	}
	isNode := r.SchemaVersion == NodeSchemaVersion
	if r.SchemaVersion == ScheduledSchemaVersion {
		isNode = want != "" && (want != AnyNode || len(m.Values["node"])+len(m.Values["sigmf_meta_sha512"]) > 0)
	}
	if !isNode {
		for _, f := range nodeFields {
			k := f.Key
			if len(m.Values[k]) == 0 {
				continue
			}
			if r.SchemaVersion == ScheduledSchemaVersion {
				p.add(k, ruleUnknownKey, "unknown key in a single-node result (only a node result, of a task with RX_NODES, has it)")
			} else {
				p.add(k, ruleUnknownKey, "unknown key in a schema_version %d result (only a node result, schema_version %d, has it)", r.SchemaVersion, NodeSchemaVersion)
			}
		}
		if want != "" && want != AnyNode {
			p.add("schema_version", ruleNode, "is %d, but a node result (schema_version %d) from node %q is required: the task names its receivers (RX_NODES)",
				r.SchemaVersion, NodeSchemaVersion, want)
		}
		return
	}
	if want == "" {
		p.add("schema_version", ruleValue, "must be %d, got %d (a node result, PROTOCOL#several-nodes, where a single-node result is expected)", SchemaVersion, r.SchemaVersion)
		good["schema_version"] = false
		return
	}
	for _, f := range nodeFields {
		v, ok := only(m, f.Key, p, "is missing (a node result has it)")
		if !ok {
			continue
		}
		if why := f.Check(nf, v); why != "" {
			p.add(f.Key, ruleValue, "%s", why)
		} else {
			good[f.Key] = true
		}
	}
	if good["node"] && want != AnyNode && nf.Node != want {
		p.add("node", ruleNode, "is %q, but this is node %q", nf.Node, want)
	}
	if good["sigmf_meta_sha512"] && good["state"] && r.State == StateReady && nf.SigMFMetaSHA512 != nil {
		p.add("sigmf_meta_sha512", ruleState, "must be null when state is %s (the metadata is written when the capture ends)", StateReady)
	}
}

// only is key's one value in m; strictjson.Fields reported duplicates.
func only(m members, key string, p *problems, why string) (value, bool) {
	vs := m.Values[key]
	if len(vs) == 0 {
		p.add(key, ruleMissing, "%s", why)
	}
	if len(vs) != 1 {
		return nil, false
	}
	return vs[0], true
}
