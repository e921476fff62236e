package main

import (
	"fmt"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/chatlens/chatlens/projection"
)

type contextsCmd struct{}

func (contextsCmd) Help() string {
	return `The named deployments of ${config_path}, one a line with what each sets;
passwords and secrets are masked. * marks the one in force: --context (or
CHATLENS_CONTEXT), else the file's current-context.

Example config.yaml:

    current-context: staging
    contexts:
      staging:
        mongo-uri: mongodb://support@staging.example.net:27017
        redis: staging.example.net:6379
      prod-eu:
        mongo-uri: mongodb+srv://support@cluster0.example.net/?readPreference=secondaryPreferred
        read-only: true
        openim-api: https://im-api.example.net
        openim-secret-env: OPENIM_SECRET_PROD_EU
      local:
        data: ~/exports/ticket-4711.db`
}

func (c *contextsCmd) Run(parser *kong.Kong, s *session) error {
	keys := contextKeys(parser.Model)
	cfg, err := loadConfig(configPath(), keys)
	if err != nil {
		return err
	}
	if cfg == nil {
		fmt.Fprintf(s.stderr, "chatlens: no contexts: there is no %s (chatlens help contexts shows one)\n", configPath())
		return nil
	}
	for _, w := range cfg.warnings {
		fmt.Fprintln(s.stderr, "chatlens: "+w)
	}
	inForce := s.conn.Context
	if inForce == "" {
		inForce = cfg.current
	}
	if inForce != "" {
		from := ""
		if s.conn.Context == "" {
			from = "current-context"
		}
		if _, err := cfg.lookup(inForce, from); err != nil {
			return err
		}
	}
	order := flagOrder(parser, keys)
	width := 0
	for _, name := range cfg.names {
		width = max(width, len(name))
	}
	var out strings.Builder
	for _, name := range cfg.names {
		mark := " "
		if name == inForce {
			mark = "*"
		}
		line := fmt.Sprintf("%s %-*s  %s", mark, width, name, strings.Join(cfg.contexts[name].settings(order), " "))
		out.WriteString(projection.SingleLine(strings.TrimRight(line, " ")) + "\n")
	}
	_, err = fmt.Fprint(s.stdout, out.String())
	return err
}

// flagOrder are the keys of a context in the command line's order of
// its connection flags.
func flagOrder(parser *kong.Kong, keys map[string]contextKey) []string {
	var order []string
	for _, f := range parser.Model.Flags {
		if _, ok := keys[f.Name]; ok {
			order = append(order, f.Name)
		}
	}
	return order
}
