package main

import (
	"github.com/alecthomas/kong"
)

type helpCmd struct {
	Command []string `arg:"" optional:"" placeholder:"COMMAND" complete:"commands" help:"The command to explain."`
}

func (helpCmd) Help() string {
	return `The same text as -h or --help, for chatlens itself or one command.

Examples:

    chatlens help
    chatlens help dump`
}

// Run prints the help of the command named, as --help would.
func (c *helpCmd) Run(parser *kong.Kong) error {
	if len(c.Command) > 0 && !hasCommand(parser, c.Command[0]) {
		return usageError{unknownCommand(parser, c.Command[0])}
	}
	if _, err := parser.Parse(append(c.Command, "--help")); err != nil {
		return parseError(parser, err)
	}
	return nil // not reached: --help ends the run
}

func hasCommand(parser *kong.Kong, name string) bool {
	for _, n := range parser.Model.Children {
		if n.Name == name {
			return true
		}
	}
	return false
}
