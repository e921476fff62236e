package bench

// Result holds both layouts' figures and the ratios between them; it
// marshals to JSON as the one object `chatlens bench --json` prints.
type Result struct {
	Target       string `json:"target"` // "embedded (...)" or the masked MongoDB deployment
	Messages     int    `json:"messages"`
	Conversation string `json:"conversation"`
	Seed         int64  `json:"seed"`
	BatchSize    int    `json:"batch_size"`
	RandomReads  int    `json:"random_reads"`
	NoSync       bool   `json:"no_sync"` // embedded commits were not fsynced
	// BucketSize is the slots per bucket document; BucketLayout says whether
	// that is the store's own layout (100) or the bench-only one.
	BucketSize   int    `json:"bucket_size"`
	BucketLayout string `json:"bucket_layout"`
	// SlotReads is how the bucket layout read single messages: only their
	// slots ($slice projection) or whole buckets (a server without it).
	SlotReads string `json:"slot_reads"`
	// Range100 and Range1000 are the first and last seq of the consecutive
	// reads (they start and end inside buckets).
	Range100  [2]int64 `json:"range_100_seqs"`
	Range1000 [2]int64 `json:"range_1000_seqs"`
	Buckets   Layout   `json:"buckets"`
	Flat      Layout   `json:"flat"`
	Ratios    Ratios   `json:"ratios"`
}

// Layout is what one layout cost.
type Layout struct {
	Write   Write   `json:"write"`
	Reads   Reads   `json:"reads"`
	Storage Storage `json:"storage"`
}

// Write is the cost of writing the whole conversation.
type Write struct {
	RoundTrips     int64   `json:"round_trips"`
	Seconds        float64 `json:"seconds"`
	MessagesPerSec float64 `json:"messages_per_sec"`
}

// Measure is the cost of one read scenario.
type Measure struct {
	RoundTrips int64   `json:"round_trips"`
	Documents  int64   `json:"documents"`
	Bytes      int64   `json:"bytes"`
	Seconds    float64 `json:"seconds"`
}

// Reads are the read scenarios, each run once per layout.
type Reads struct {
	Newest20     Measure `json:"newest_20"`
	Range100     Measure `json:"range_100"`
	Range1000    Measure `json:"range_1000"`
	RandomSingle Measure `json:"random_single"`
	FullScroll   Measure `json:"full_scroll"`
}

// Storage is the size of one layout. Figures a target cannot report are
// omitted (nil).
type Storage struct {
	Documents    int64  `json:"documents"`
	IndexEntries int64  `json:"index_entries"`
	DataBytes    *int64 `json:"data_bytes,omitempty"`    // sum of document sizes
	FileBytes    *int64 `json:"file_bytes,omitempty"`    // embedded: the layout's bbolt file
	StorageBytes *int64 `json:"storage_bytes,omitempty"` // MongoDB: collStats storageSize
	IndexBytes   *int64 `json:"index_bytes,omitempty"`   // MongoDB: collStats totalIndexSize
	// LargestDocument is the biggest document written, against MongoDB's
	// 16 MiB limit (bucket layouts whose store can tell).
	LargestDocument *int64 `json:"largest_document_bytes,omitempty"`
}

// Ratio is flat ÷ buckets for each figure of a read: above 1 the flat
// layout costs that many times more. 0 when the bucket figure is 0.
type Ratio struct {
	RoundTrips float64 `json:"round_trips"`
	Documents  float64 `json:"documents"`
	Bytes      float64 `json:"bytes"`
	Seconds    float64 `json:"seconds"`
}

// Ratios are flat ÷ buckets for every figure (for messages per second,
// above 1 means the flat layout writes faster). Sizes a target could not
// report for both layouts are omitted.
type Ratios struct {
	WriteRoundTrips     float64  `json:"write_round_trips"`
	WriteSeconds        float64  `json:"write_seconds"`
	WriteMessagesPerSec float64  `json:"write_messages_per_sec"`
	Newest20            Ratio    `json:"newest_20"`
	Range100            Ratio    `json:"range_100"`
	Range1000           Ratio    `json:"range_1000"`
	RandomSingle        Ratio    `json:"random_single"`
	FullScroll          Ratio    `json:"full_scroll"`
	Documents           float64  `json:"documents"`
	IndexEntries        float64  `json:"index_entries"`
	DataBytes           *float64 `json:"data_bytes,omitempty"`
	FileBytes           *float64 `json:"file_bytes,omitempty"`
	StorageBytes        *float64 `json:"storage_bytes,omitempty"`
	IndexBytes          *float64 `json:"index_bytes,omitempty"`
}

// ratio is f ÷ b, 0 when b is 0.
func ratio(f, b float64) float64 {
	if b == 0 {
		return 0
	}
	return f / b
}

func readRatio(f, b Measure) Ratio {
	return Ratio{
		RoundTrips: ratio(float64(f.RoundTrips), float64(b.RoundTrips)),
		Documents:  ratio(float64(f.Documents), float64(b.Documents)),
		Bytes:      ratio(float64(f.Bytes), float64(b.Bytes)),
		Seconds:    ratio(f.Seconds, b.Seconds),
	}
}

func sizeRatio(f, b *int64) *float64 {
	if f == nil || b == nil {
		return nil
	}
	r := ratio(float64(*f), float64(*b))
	return &r
}

func ratios(b, f Layout) Ratios {
	return Ratios{
		WriteRoundTrips:     ratio(float64(f.Write.RoundTrips), float64(b.Write.RoundTrips)),
		WriteSeconds:        ratio(f.Write.Seconds, b.Write.Seconds),
		WriteMessagesPerSec: ratio(f.Write.MessagesPerSec, b.Write.MessagesPerSec),
		Newest20:            readRatio(f.Reads.Newest20, b.Reads.Newest20),
		Range100:            readRatio(f.Reads.Range100, b.Reads.Range100),
		Range1000:           readRatio(f.Reads.Range1000, b.Reads.Range1000),
		RandomSingle:        readRatio(f.Reads.RandomSingle, b.Reads.RandomSingle),
		FullScroll:          readRatio(f.Reads.FullScroll, b.Reads.FullScroll),
		Documents:           ratio(float64(f.Storage.Documents), float64(b.Storage.Documents)),
		IndexEntries:        ratio(float64(f.Storage.IndexEntries), float64(b.Storage.IndexEntries)),
		DataBytes:           sizeRatio(f.Storage.DataBytes, b.Storage.DataBytes),
		FileBytes:           sizeRatio(f.Storage.FileBytes, b.Storage.FileBytes),
		StorageBytes:        sizeRatio(f.Storage.StorageBytes, b.Storage.StorageBytes),
		IndexBytes:          sizeRatio(f.Storage.IndexBytes, b.Storage.IndexBytes),
	}
}
